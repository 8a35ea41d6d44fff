import type { HandlerContext, HandlerGroup } from './context';

/**
 * The offline library: full-text search over every stored lot (most recently seen first without a query) and
 * CSV export. Works without the service; throws only database errors.
 */
export function libraryHandlers(c: HandlerContext): HandlerGroup<'library.search' | 'library.export'> {
  return {
    'library.search': (i) => c.service.searchLibrary(i),
    'library.export': (i) => c.desk.exportCsv(i),
  };
}
