import { useSchoolSettings } from './school-settings';

/**
 * App-wide: whether the school has result-checker PINs on (its public settings). The public home
 * and the sign-in pages link to the public result check only then.
 */
export function useCheckResultOffered(): boolean {
  return useSchoolSettings().data?.result_pins_enabled === true;
}
