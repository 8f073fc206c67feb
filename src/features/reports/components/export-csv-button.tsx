// 'Exportar CSV' of a report table: every row of its filter, not just the page shown.
import { Download, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useExportCsv, type CsvExport } from '../api/hooks';

export function ExportCsvButton({ fileName, rows, disabled }: { fileName: string; rows: CsvExport; disabled: boolean }) {
  const exportCsv = useExportCsv(fileName);
  return (
    <Button variant="outline" size="sm" onClick={() => exportCsv.mutate(rows)} disabled={exportCsv.isPending || disabled}>
      {exportCsv.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />} Exportar CSV
    </Button>
  );
}
