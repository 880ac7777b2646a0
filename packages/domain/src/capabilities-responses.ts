import { z } from 'zod';
import { STAFF_CAPABILITIES, type StaffCapabilities } from './bursary';
import { describes } from './response-check';

/** A staff member and the capabilities the admin granted: PUT /api/staff-capabilities/:staff_id/ answers one. */
export const staffCapabilitiesResponseSchema = describes<StaffCapabilities>()(
  z
    .object({ staff_id: z.string(), name: z.string(), email: z.string(), capabilities: z.array(z.enum(STAFF_CAPABILITIES)) })
    .meta({ id: 'StaffCapabilities' }),
);

/** GET /api/staff-capabilities/ (admin): every staff member and what they hold. */
export const staffCapabilitiesListSchema = z.array(staffCapabilitiesResponseSchema).meta({ id: 'StaffCapabilitiesList' });

/** GET /api/me/capabilities/: what the signed-in staff member holds (the admin: all). */
export const myCapabilitiesSchema = z.object({ capabilities: z.array(z.enum(STAFF_CAPABILITIES)) }).meta({ id: 'MyCapabilities' });
