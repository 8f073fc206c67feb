// The one behaviour of settings (docs/conventions.md, "Settings"): a switch saves at once, says
// "Salvo", and flips back on a failure; a typed setting waits for "Salvar", and leaving the page with
// it unsaved asks first (a link of the app, and the browser's reload or close).
import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { FormField } from './form-field';
import { Input } from './input';
import { SettingSwitch } from './setting-switch';
import { UnsavedChangesScope, useUnsavedChanges } from './unsaved-changes';

function Server({ save }: { save: (on: boolean) => Promise<void> }) {
  const [kept, setKept] = useState(false);
  return <SettingSwitch label="Enviar lembretes" description="Um e-mail por semana." checked={kept} onSave={async (on) => (await save(on), setKept(on))} />;
}

describe('SettingSwitch', () => {
  it('saves on the flip and says Salvo; a refused save flips back and says Não foi salvo', async () => {
    let finish: (ok: boolean) => void = () => undefined;
    const save = vi.fn(() => new Promise<void>((resolve, reject) => (finish = (ok) => (ok ? resolve() : reject(new Error('recusado'))))));
    renderScreen(<Server save={save} />);
    const toggle = screen.getByRole('switch', { name: 'Enviar lembretes' });
    expect(toggle).toHaveAccessibleDescription('Um e-mail por semana.');

    await userEvent.click(toggle);
    expect(save).toHaveBeenCalledWith(true);
    expect(toggle).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Salvando...');
    // A flip while the save is on its way is not a second save.
    await userEvent.click(toggle);
    expect(save).toHaveBeenCalledTimes(1);
    await act(async () => finish(true));
    expect(screen.getByRole('status')).toHaveTextContent('Salvo');
    expect(toggle).toBeChecked();
    expect(toggle).toHaveFocus();

    await userEvent.click(toggle);
    expect(toggle).not.toBeChecked();
    await act(async () => finish(false));
    expect(screen.getByRole('status')).toHaveTextContent('Não foi salvo');
    expect(toggle).toBeChecked();
  });
});

function TypedSetting({ onSave }: { onSave: (name: string) => void }) {
  const form = useForm({ defaultValues: { name: 'Escola Demo' } });
  useUnsavedChanges(form.formState.isDirty);
  return (
    <form
      aria-label="Nome"
      onSubmit={form.handleSubmit((values) => {
        onSave(values.name);
        form.reset(values);
      })}
    >
      <FormField label="Nome da escola">
        <Input {...form.register('name')} />
      </FormField>
      <button type="submit">Salvar</button>
      <Link to="/admin/courses">Cursos</Link>
    </form>
  );
}

const page = (onSave = vi.fn()) =>
  renderScreen(
    <UnsavedChangesScope>
      <TypedSetting onSave={onSave} />
    </UnsavedChangesScope>,
    { route: '/admin/settings', path: '/admin/settings' },
  );

describe('UnsavedChangesScope', () => {
  it('leaving the page with a typed change asks first: Continuar editando keeps it, Sair sem salvar leaves', async () => {
    const view = page();
    await userEvent.type(screen.getByLabelText('Nome da escola'), ' Nova');
    await userEvent.click(screen.getByRole('link', { name: 'Cursos' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    expect(ask).toHaveTextContent('Há alterações nesta página que ainda não foram salvas');
    await userEvent.click(within(ask).getByRole('button', { name: 'Continuar editando' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(currentLocation(view)).toBe('/admin/settings');
    expect(screen.getByLabelText('Nome da escola')).toHaveValue('Escola Demo Nova');

    await userEvent.click(screen.getByRole('link', { name: 'Cursos' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sair sem salvar' }));
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/courses'));
  });

  it('the browser asks before a reload only while a change is unsaved; a saved form leaves freely', async () => {
    const onSave = vi.fn();
    const view = page(onSave);
    const reload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(reload()).toBe(false);
    await userEvent.type(screen.getByLabelText('Nome da escola'), ' Nova');
    expect(reload()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(onSave).toHaveBeenCalledWith('Escola Demo Nova');
    await waitFor(() => expect(reload()).toBe(false));
    await userEvent.click(screen.getByRole('link', { name: 'Cursos' }));
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/courses'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
