/**
 * A failed zod parse as the messages a form shows beside its fields: keyed like the server's 400
 * (`{field: [messages]}`, nested paths joined with dots, issues without a path under `root`), each
 * message once per field, in the schema's order. The one copy of this rule on the client; structural
 * so the web bundles no zod for it.
 */
export interface ParseIssues {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}

export type IssueErrors = Record<string, string[]>;

export function issueErrors(
  error: ParseIssues,
  { root = 'non_field_errors', depth = Infinity }: { root?: string; depth?: number } = {},
): IssueErrors {
  const out: IssueErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.slice(0, depth).map(String).join('.') : root;
    const list = (out[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return out;
}

/** The first message of each field (forms that show one message per field). */
export function firstIssueErrors(error: ParseIssues, options?: { root?: string; depth?: number }): Record<string, string> {
  return Object.fromEntries(Object.entries(issueErrors(error, options)).map(([k, v]) => [k, v[0]!]));
}
