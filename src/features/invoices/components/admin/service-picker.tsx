// Configurações → Notas fiscais' "Serviço municipal" (issue 42): the service chosen, and a search over Asaas's
// list of the municipality's services (invoice-settings 'services'); choosing sets the form's id and name.
import { useId, useState, type KeyboardEvent } from 'react';
import { useWatch, type Control, type UseFormSetValue } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useMunicipalServices } from '../../api/hooks';
import type { InvoiceSettingsInput } from '../../schemas';

/** The municipal service: the one chosen, and a search over Asaas's list for the municipality. */
export function ServicePicker({
  schoolId,
  control,
  setValue,
}: {
  schoolId: string;
  control: Control<InvoiceSettingsInput>;
  setValue: UseFormSetValue<InvoiceSettingsInput>;
}) {
  const headingId = useId();
  const [searching, setSearching] = useState(false);
  const [q, setQ] = useState('');
  const services = useMunicipalServices(schoolId, q, searching);
  const chosenName = useWatch({ control, name: 'municipal_service_name' });
  const chosenId = useWatch({ control, name: 'municipal_service_id' });
  // Enter in the search box searches; it must not submit the settings form.
  const noSubmit = (e: KeyboardEvent) => e.key === 'Enter' && e.preventDefault();
  return (
    <div className="grid gap-2" role="group" aria-labelledby={headingId}>
      <span id={headingId} className="text-sm font-medium">
        Serviço municipal
      </span>
      <div className="flex flex-wrap items-center gap-2 rounded-lg border border-border px-3 py-2 text-sm">
        <span className="min-w-0 flex-1 break-words" aria-live="polite">
          {chosenId ? chosenName || chosenId : <span className="text-muted-foreground">Nenhum serviço escolhido</span>}
        </span>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => setSearching((s) => !s)}
          aria-expanded={searching}
        >
          {searching ? 'Fechar busca' : chosenId ? 'Trocar serviço' : 'Escolher serviço'}
        </Button>
      </div>
      {searching && (
        <div className="grid gap-2 rounded-lg border border-border p-3" onKeyDown={noSubmit}>
          <ListSearch
            label="Buscar serviço municipal pela descrição"
            placeholder="Buscar pela descrição (ex.: ensino, treinamento)"
            value={q}
            onSearch={(t) => setQ(t.trim())}
          />
          {services.isPending ? (
            <Skeleton className="h-24" />
          ) : services.isError ? (
            <LoadError title="Não foi possível buscar os serviços da prefeitura" onRetry={services.refetch} />
          ) : services.data.services.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nenhum serviço encontrado com essa descrição.</p>
          ) : (
            <ul
              className="grid max-h-72 gap-1 overflow-y-auto"
              aria-label="Serviços da prefeitura"
              aria-busy={services.isFetching}
            >
              {services.data.services.map((s) => (
                <li
                  key={s.id}
                  className="flex items-start justify-between gap-3 rounded-md px-2 py-2 hover:bg-muted/60"
                >
                  <span className="min-w-0 text-sm break-words">
                    {s.description}
                    {s.iss_tax != null && (
                      <span className="block text-xs text-muted-foreground">
                        ISS sugerido: {String(s.iss_tax).replace('.', ',')}%
                      </span>
                    )}
                  </span>
                  <Button
                    type="button"
                    size="sm"
                    variant={s.id === chosenId ? 'secondary' : 'outline'}
                    aria-label={`Escolher ${s.description}`}
                    onClick={() => {
                      setValue('municipal_service_id', s.id, { shouldDirty: true });
                      setValue('municipal_service_name', s.description, { shouldDirty: true });
                      setSearching(false);
                    }}
                  >
                    {s.id === chosenId ? 'Escolhido' : 'Escolher'}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {services.data?.has_more && (
            <p className="text-xs text-muted-foreground">Há mais serviços: refine a busca.</p>
          )}
        </div>
      )}
    </div>
  );
}
