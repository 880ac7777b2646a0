/**
 * Parents and family access (issue 33, docs/decisions/035): parent accounts, their links to
 * students, conflicts for the admin, invitations. Layer 2 (may import access, auth, calendar,
 * people, settings).
 */
export {};
