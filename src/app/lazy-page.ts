import type { ComponentType } from 'react';

type PageModule = { default: ComponentType };

/** route.lazy loader for a module whose default export is the page component. */
export function page(load: () => Promise<PageModule>) {
  return async () => ({ Component: (await load()).default });
}
