// The shared chart card with the bar chart inside, as a screen mounts it: what a reader sees, what a
// screen reader is told, the table toggle, the tooltip (hover, tap, keyboard) and the CSV.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { BarList } from './bar-list';
import { ChartCard, type ChartColumn } from './chart-card';
import { bucketLabel, type TimePoint } from './chart-format';
import { TimeSeriesChart } from './lazy-charts';

const downloadBlob = vi.hoisted(() => vi.fn());
vi.mock('@/utils/download', () => ({ downloadBlob }));

const points: TimePoint[] = [
  { start: '2026-11-24', value: 2 },
  { start: '2026-11-25', value: 1 },
  { start: '2026-11-26', value: 1234 },
];
const valueText = (v: number) => `${v.toLocaleString('pt-BR')} ${v === 1 ? 'aluno' : 'alunos'}`;
const columns: ChartColumn<TimePoint>[] = [
  { header: 'Dia', cell: (p) => bucketLabel(p.start, 'day') },
  { header: 'Novos alunos', cell: (p) => p.value.toLocaleString('pt-BR'), csv: (p) => String(p.value), numeric: true },
];
const ok = { isPending: false, isError: false, refetch: vi.fn() };

function Card({ rows = points, query = ok, empty }: { rows?: TimePoint[]; query?: typeof ok; empty?: boolean }) {
  return (
    <ChartCard
      title="Novos alunos"
      query={query}
      loadErrorTitle="Não foi possível carregar o gráfico"
      rows={rows}
      rowKey={(p) => p.start}
      columns={columns}
      empty={empty}
      total="1.237"
      change="+12% vs. período anterior"
      summary="Novos alunos: 1.237 nos últimos 7 dias."
      csvFile="novos-alunos"
    >
      <TimeSeriesChart points={rows} unit="day" valueText={valueText} tickText={String} label="Novos alunos" />
    </ChartCard>
  );
}

describe('ChartCard', () => {
  beforeEach(() => downloadBlob.mockReset());

  it('shows the total, the change and a summary for screen readers, and the bars named by day and value', async () => {
    renderScreen(<Card />);
    const card = screen.getByRole('region', { name: 'Novos alunos' });
    expect(within(card).getByText('1.237')).toBeInTheDocument();
    expect(within(card).getByText('+12% vs. período anterior')).toBeInTheDocument();
    expect(within(card).getByText('Novos alunos: 1.237 nos últimos 7 dias.')).toHaveClass('sr-only');
    const chart = await within(card).findByRole('group', { name: /^Novos alunos: gráfico de barras, 3 barras/ });
    expect(within(chart).getAllByRole('img').map((bar) => bar.getAttribute('aria-label'))).toEqual(['24/11: 2 alunos', '25/11: 1 aluno', '26/11: 1.234 alunos']);
  });

  it('"Ver tabela" shows the same numbers as a table, and "Ver gráfico" brings the chart back', async () => {
    renderScreen(<Card />);
    await screen.findByRole('group', { name: /gráfico de barras/ });
    await userEvent.click(screen.getByRole('button', { name: 'Ver tabela' }));
    const table = screen.getByRole('table', { name: 'Novos alunos' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Dia', 'Novos alunos']);
    expect(within(table).getAllByRole('row').slice(1).map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['24/11', '2'],
      ['25/11', '1'],
      ['26/11', '1.234'],
    ]);
    expect(screen.queryByRole('group', { name: /gráfico de barras/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ver gráfico' }));
    expect(await screen.findByRole('group', { name: /gráfico de barras/ })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('a bar shows its tooltip on focus, on hover and on tap; the arrow keys move between bars', async () => {
    renderScreen(<Card />);
    const chart = await screen.findByRole('group', { name: /gráfico de barras/ });
    const [first, second, third] = within(chart).getAllByRole('img');
    // One Tab stop after the card's buttons, on the latest bar; the arrows go back.
    screen.getByRole('button', { name: 'Exportar CSV' }).focus();
    await userEvent.tab();
    expect(third).toHaveFocus();
    expect(screen.getByText('26/11: 1.234 alunos')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowLeft}');
    expect(second).toHaveFocus();
    expect(screen.getByText('25/11: 1 aluno')).toBeInTheDocument();
    expect(screen.queryByText('26/11: 1.234 alunos')).not.toBeInTheDocument();
    await userEvent.keyboard('{Home}');
    expect(first).toHaveFocus();
    await userEvent.tab();
    expect(document.body).toHaveFocus();
    expect(screen.queryByText('24/11: 2 alunos')).not.toBeInTheDocument();

    await userEvent.hover(second!);
    expect(screen.getByText('25/11: 1 aluno')).toBeInTheDocument();
    await userEvent.unhover(second!);
    expect(screen.queryByText('25/11: 1 aluno')).not.toBeInTheDocument();
    await userEvent.pointer({ target: third!, keys: '[TouchA]', pointerName: 'touch' });
    expect(screen.getByText('26/11: 1.234 alunos')).toBeInTheDocument();
  });

  it('with fewer bars than before (a shorter period) the Tab key still reaches the chart', async () => {
    function Shrinking() {
      const [rows, setRows] = useState(points);
      return (
        <>
          <button onClick={() => setRows(points.slice(0, 2))}>Menos</button>
          <Card rows={rows} />
        </>
      );
    }
    renderScreen(<Shrinking />);
    await screen.findByRole('group', { name: /3 barras/ });
    await userEvent.click(screen.getByRole('button', { name: 'Menos' }));
    const bars = within(await screen.findByRole('group', { name: /2 barras/ })).getAllByRole('img');
    screen.getByRole('button', { name: 'Exportar CSV' }).focus();
    await userEvent.tab();
    expect(bars[1]).toHaveFocus();
  });

  it('nothing to draw: "Ainda não há dados neste período", no table toggle and nothing to export', () => {
    renderScreen(<Card rows={points.map((p) => ({ ...p, value: 0 }))} empty />);
    expect(screen.getByText('Ainda não há dados neste período')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ver tabela' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
    expect(screen.queryByRole('group', { name: /gráfico de barras/ })).not.toBeInTheDocument();
  });

  it('loading shows no total and nothing to export; a failed read shows "—" and LoadError whose retry reads again', async () => {
    const view = renderScreen(<Card query={{ ...ok, isPending: true }} />);
    expect(screen.queryByText('1.237')).not.toBeInTheDocument();
    expect(screen.queryByText('+12% vs. período anterior')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
    expect(screen.queryByRole('group', { name: /gráfico de barras/ })).not.toBeInTheDocument();
    view.unmount();
    const refetch = vi.fn();
    renderScreen(<Card query={{ isPending: false, isError: true, refetch }} />);
    expect(screen.getByRole('region', { name: 'Novos alunos' })).toHaveTextContent('Novos alunos—');
    expect(screen.getByText('Não foi possível carregar o gráfico')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(refetch).toHaveBeenCalled();
  });

  it('"Exportar CSV" writes the chart\'s rows with its columns, formulas neutralised', async () => {
    const rows = [{ start: '2026-11-24', value: 2 }];
    renderScreen(
      <ChartCard
        title="Funil"
        query={ok}
        loadErrorTitle="x"
        rows={rows}
        rowKey={(p) => p.start}
        columns={[
          { header: 'Aula', cell: () => '=HYPERLINK("https://mal.example")' },
          { header: 'Valor', cell: (p) => `${p.value} (50%)`, only: 'table' },
          { header: 'Valor', csvHeader: 'Valor (R$)', cell: (p) => String(p.value), csv: () => '-2,50', only: 'csv' },
        ]}
        csvFile="funil"
      />,
    );
    // A card without a chart is its table.
    expect(within(screen.getByRole('table', { name: 'Funil' })).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Aula', 'Valor']);
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith(expect.stringMatching(/^funil-\d{4}-\d{2}-\d{2}\.csv$/), expect.any(Blob)));
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual(['Aula;Valor (R$)', `"'=HYPERLINK(""https://mal.example"")";"'-2,50"`]);
  });
});

describe('BarList', () => {
  it('writes each bar with its label and number, and shows the details on hover, tap and focus', async () => {
    renderScreen(
      <BarList
        label="Funil de conclusão por aula"
        labelWidth="5rem"
        valueWidth="3rem"
        items={[
          { key: 'a', title: '1. Boas-vindas', bars: [{ label: 'Iniciaram', share: 0.9, text: '9' }], tooltip: 'Iniciaram: 9 de 10 (90%)' },
          { key: 'b', title: '2. Fórmulas', bars: [{ label: 'Iniciaram', share: 0.5, text: '5' }], tooltip: 'Iniciaram: 5 de 10 (50%)' },
        ]}
      />,
    );
    const [first, second] = within(screen.getByRole('list', { name: 'Funil de conclusão por aula' })).getAllByRole('listitem');
    expect(first).toHaveTextContent('1. Boas-vindasIniciaram9');
    await userEvent.hover(second!);
    expect(screen.getByText('Iniciaram: 5 de 10 (50%)')).toBeInTheDocument();
    await userEvent.unhover(second!);
    expect(screen.queryByText('Iniciaram: 5 de 10 (50%)')).not.toBeInTheDocument();
    await userEvent.tab();
    expect(first).toHaveFocus();
    expect(screen.getByText('Iniciaram: 9 de 10 (90%)')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowDown}');
    expect(second).toHaveFocus();
    expect(screen.getByText('Iniciaram: 5 de 10 (50%)')).toBeInTheDocument();
  });
});
