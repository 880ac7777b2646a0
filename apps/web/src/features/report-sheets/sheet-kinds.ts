/**
 * The report sheets' kinds in the offline core (decision 044): their kept copies and queued rows.
 * A tiny module: the shell registers their senders without loading the sheets' code.
 */
export const RATINGS_KIND = 'ratings';
export const COMMENTS_KIND = 'comments';
