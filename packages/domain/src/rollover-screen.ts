/**
 * The rollover screen's address and menu words, apart from rollover.ts's request schemas: the web's
 * route table and home menu import this module alone, so the first JavaScript of every page holds no
 * zod schema (bench/web.ts checks it). rollover.ts re-exports it.
 */
export const ROLLOVER_SCREEN = {
  to: '/session-rollover',
  label: 'Start Next Session',
  description: 'The new session, its terms, and what it copies from this one',
} as const;
