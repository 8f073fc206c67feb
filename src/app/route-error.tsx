import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from '@/components/ui/button';

/** Shown when a route fails to render or its chunk fails to load (e.g. after a deploy). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : null;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">Algo deu errado</h1>
      <p className="max-w-md text-muted-foreground">Não foi possível carregar esta página. Tente recarregar.</p>
      {detail && <p className="max-w-md text-xs text-muted-foreground">{detail}</p>}
      <Button onClick={() => window.location.reload()}>Recarregar</Button>
    </main>
  );
}
