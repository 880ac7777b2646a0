import type { StaffDetail } from '@portal/domain/people-constants';
import { compact } from '../../lib/schema-form';
import { personFieldsOf } from './person-fields';

const PROFILE_KEYS = ['qualifications', 'employment_date', 'bank_account', 'tax_id'] as const;

/** The registration body: user fields flat, profile fields under profile_data. */
export function staffBody(values: Record<string, string>): Record<string, unknown> {
  const flat = compact(values);
  const profile: Record<string, string> = {};
  for (const k of PROFILE_KEYS) {
    if (flat[k] !== undefined) profile[k] = flat[k];
    delete flat[k];
  }
  return { ...flat, ...(Object.keys(profile).length ? { profile_data: profile } : {}) };
}

export const STAFF_EDIT_EMPTY = {
  first_name: '',
  last_name: '',
  email: '',
  phone_number: '',
  gender: '',
  marital_status: '',
  designation: '',
  department: '',
  qualifications: '',
  employment_date: '',
  bank_account: '',
  tax_id: '',
};

export function staffValuesOf(s: StaffDetail): typeof STAFF_EDIT_EMPTY {
  const p = s.profile_data;
  return {
    ...personFieldsOf(s),
    marital_status: s.marital_status ?? '',
    designation: s.designation,
    department: s.department,
    qualifications: p.qualifications ?? '',
    employment_date: p.employment_date ?? '',
    bank_account: p.bank_account ?? '',
    tax_id: p.tax_id ?? '',
  };
}

/** The form field an issue's path names (nested `profile_data.x` -> `x`). */
export const leafField = (path: string): string => path.split('.').pop()!;

/** The edit body: every field sent as it stands (blank clears an optional field), profile fields nested. */
export function staffEditBody(values: Record<string, string>): Record<string, unknown> {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) flat[k] = v.trim();
  const profile: Record<string, string> = {};
  for (const k of PROFILE_KEYS) {
    profile[k] = flat[k] ?? '';
    delete flat[k];
  }
  return { ...flat, profile_data: profile };
}
