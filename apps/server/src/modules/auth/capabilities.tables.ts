import type { StaffCapability } from '@portal/domain';

/** What the admin granted a staff member beyond teaching (migration 0018). */
export interface StaffCapabilitiesTable {
  user_id: number;
  capability: StaffCapability;
  granted_by: number | null;
  granted_at: string;
}

declare module '../../db/schema' {
  interface Database {
    staff_capabilities: StaffCapabilitiesTable;
  }
}
