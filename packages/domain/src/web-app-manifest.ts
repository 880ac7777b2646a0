/**
 * The installable app's manifest (issue 35, docs/decisions/045): built from the school's settings, so
 * each school's name is what the phone shows under the icon. Zod-free: the server builds it on every
 * request and the web build reads the icon list.
 */

/** The portal's brand colour (Tailwind's brand-900, index.html's theme-color); settings hold no colour of the school's own. */
export const BRAND_THEME_COLOUR = '#14532d';
/** The splash screen's background while the app starts. */
export const APP_BACKGROUND_COLOUR = '#ffffff';

/** The PNG icons the web build writes (apps/web/build/app-icons.ts): the sizes browsers ask for. */
export const APP_ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;
/** iOS ignores the manifest's icons and reads this one (`<link rel="apple-touch-icon">`). */
export const APPLE_TOUCH_ICON = '/icons/apple-touch-icon.png';

/** Where the installed app opens. */
export const APP_START_PATH = '/app';

/** Longest name a home screen shows under an icon without cutting it (Android ~12 characters). */
export const SHORT_NAME_MAX = 12;
const MINOR_WORDS = new Set(['of', 'and', 'the', 'for', '&']);

/**
 * The home-screen label: the school's name when it fits, else its initials ("Role Models College" →
 * "RMC"), else its first characters.
 */
export function shortAppName(schoolName: string): string {
  const name = schoolName.replace(/\s+/g, ' ').trim() || 'Portal';
  if (name.length <= SHORT_NAME_MAX) return name;
  const words = name.split(' ').filter((w) => !MINOR_WORDS.has(w.toLowerCase()));
  const initials = words.map((w) => [...w][0]!.toUpperCase()).join('');
  if (initials.length >= 2 && initials.length <= SHORT_NAME_MAX) return initials;
  return [...name].slice(0, SHORT_NAME_MAX).join('').trim();
}

export interface WebAppManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  orientation: 'any';
  theme_color: string;
  background_color: string;
  lang: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

/** The manifest of `GET /manifest.webmanifest` for a school called `schoolName`. */
export function webAppManifest(schoolName: string): WebAppManifest {
  const name = schoolName.replace(/\s+/g, ' ').trim() || 'School portal';
  return {
    // A stable id: renaming the school updates the installed app instead of making a second one.
    id: '/',
    name,
    short_name: shortAppName(name),
    description: `${name}: results, registers, fees and records, also without a network.`,
    // The app's start (apps/web/src/app/start.tsx): a signed-in user's home, else the sign-in choice.
    start_url: APP_START_PATH,
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: BRAND_THEME_COLOUR,
    background_color: APP_BACKGROUND_COLOUR,
    lang: 'en-NG',
    icons: APP_ICONS.map((i) => ({ ...i })),
  };
}

/** What the app says about its own versions (the update prompt in the app layout). */
export const APP_UPDATE_MESSAGES = {
  ready: 'A new version of the portal is ready.',
  readyDetail: 'Reload to use it. Anything waiting to be sent stays on this phone and is sent after the reload.',
  reload: 'Reload now',
} as const;
