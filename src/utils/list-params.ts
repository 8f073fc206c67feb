// The page and search of an admin list live in the URL (`?pagina=2&q=excel`): a reload, a shared link
// or the back button returns to the same place. `page` is 0-based here and 1-based in the URL.
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

export const PAGE_PARAM = 'pagina';
export const QUERY_PARAM = 'q';

export interface ListParams {
  page: number;
  query: string;
  /** Another filter of the list (e.g. `curso`), '' when absent. */
  filter: (name: string) => string;
  setPage: (page: number) => void;
  /** A new search starts again at the first page; it replaces the history entry (one per keystroke otherwise). */
  setQuery: (query: string) => void;
  /** A changed filter starts again at the first page. '' removes it. */
  setFilter: (name: string, value: string) => void;
  /** Several filters changed at once, in one history entry (two setFilter calls in a row: only the last one sticks). */
  setFilters: (values: Record<string, string>) => void;
}

export function useListParams(): ListParams {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, (Number.parseInt(params.get(PAGE_PARAM) ?? '', 10) || 1) - 1);
  const query = params.get(QUERY_PARAM) ?? '';

  const update = useCallback(
    (change: (next: URLSearchParams) => void, replace: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  const setPage = useCallback((p: number) => update((next) => (p > 0 ? next.set(PAGE_PARAM, String(p + 1)) : next.delete(PAGE_PARAM)), false), [update]);
  const setFilters = useCallback(
    (values: Record<string, string>) =>
      update(
        (next) => {
          for (const [name, value] of Object.entries(values)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          next.delete(PAGE_PARAM);
        },
        Object.keys(values).every((name) => name === QUERY_PARAM),
      ),
    [update],
  );
  const setFilter = useCallback((name: string, value: string) => setFilters({ [name]: value }), [setFilters]);
  const setQuery = useCallback((q: string) => setFilter(QUERY_PARAM, q.trim()), [setFilter]);
  const filter = useCallback((name: string) => params.get(name) ?? '', [params]);

  return { page, query, filter, setPage, setQuery, setFilter, setFilters };
}
