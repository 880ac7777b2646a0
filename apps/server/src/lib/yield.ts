/**
 * Lets the event loop run other requests' I/O (health checks, sign-ins) between the slices of a long
 * job: a CSV import parses, checks and inserts in slices with this between them.
 * A plain `await` of a resolved promise is not enough: microtasks run before any I/O callback.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
