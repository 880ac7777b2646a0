import { PEOPLE_MESSAGES } from '@portal/domain/people';

/** The fields every person's edit form starts with, from a student or staff record (blank for a missing gender). */
export function personFieldsOf(p: {
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string;
  gender: string | null;
}) {
  return { first_name: p.first_name, last_name: p.last_name, email: p.email ?? '', phone_number: p.phone_number, gender: p.gender ?? '' };
}

/** A password typed for a new or changed account must be typed again the same (blank: none typed). */
export function passwordsMatch(v: { password: string; confirm_password: string }): Record<string, string[]> {
  return v.password && v.password !== v.confirm_password ? { confirm_password: [PEOPLE_MESSAGES.passwordsDoNotMatch] } : {};
}
