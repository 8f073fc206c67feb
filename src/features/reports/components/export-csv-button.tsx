// 'Exportar CSV' of a report table: builds the file (all rows, not just the page) and downloads it.
import { useState } from 'react';
import { Download, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { downloadCsv } from '@/lib/csv';
import { toast } from '@/lib/toast';
import { errorMessage } from '@/lib/utils';

export function ExportCsvButton({ fileName, build, disabled }: { fileName: string; build: () => Promise<string>; disabled: boolean }) {
  const [exporting, setExporting] = useState(false);

  async function exportCsv() {
    setExporting(true);
    try {
      downloadCsv(`${fileName}-${new Date().toISOString().slice(0, 10)}.csv`, await build());
    } catch (error) {
      toast.error('Erro ao exportar', { description: errorMessage(error) });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={exporting || disabled}>
      {exporting ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />} Exportar CSV
    </Button>
  );
}
