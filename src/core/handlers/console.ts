import type { HandlerContext, HandlerGroup } from './context';

type ConsoleMethods = 'usage.fetch' | 'requests.list' | 'console.endpoints' | 'console.call';

/**
 * Usage and the API console: the key's usage from the service, the request log, and one raw call to any
 * endpoint of either specification. Throws ApiInputError for bad console input (no request), ApiError.
 */
export function consoleHandlers(c: HandlerContext): HandlerGroup<ConsoleMethods> {
  return {
    'usage.fetch': async () => {
      await c.ready;
      return c.explore.usage();
    },
    'requests.list': (i) => c.explore.requests(i?.limit ?? 200),
    'console.endpoints': () => c.apiConsole.endpoints(),
    'console.call': async (i) => {
      await c.ready;
      return c.apiConsole.call(i);
    },
  };
}
