import type { SchoolSettings } from '@portal/domain/settings-constants';
import { setSchoolTimeZone } from './datetime';
import { publicDocument } from './public-document';

/** App-wide: the header, the public home page and the settings screen all read the school settings. */
const settings = publicDocument<SchoolSettings>('settings', '/settings/', (s) => setSchoolTimeZone(s.time_zone));

/** School name, motto, address, logo and facts: public, cached for the session. */
export const settingsQuery = settings.query;
export const settingsKey = settingsQuery.queryKey;
export const useSchoolSettings = settings.useRead;
export const useSaveSettings = settings.useSave;
