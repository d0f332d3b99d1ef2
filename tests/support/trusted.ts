/**
 * Events as the browser makes them for the curator's own input: `isTrusted` true. A page's script cannot do this
 * (in a browser `isTrusted` is an own, unforgeable property); the unit tests' DOM lets the test stand in for the
 * browser here, so code that ignores untrusted events can be driven.
 */
export function asCurator<E extends Event>(event: E): E {
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}
