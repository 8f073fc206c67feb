// A deferred menu's look-alike trigger: a press that is still going on when the real code arrives
// must still open it (the clean-clone run at d7f624c lost such a click on the bell).
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDeferredTrigger } from './deferred-module';

function realMenu({ defaultOpen }: { defaultOpen: boolean }) {
  return <button type="button">{defaultOpen ? 'Menu real, aberto' : 'Menu real, fechado'}</button>;
}

function deferredLoader() {
  let arrive = () => undefined as void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const load = async () => {
    await arrived;
    return { Menu: realMenu };
  };
  return { load, arrive: async () => act(async () => arrive()) };
}

function Trigger({ load }: { load: () => Promise<{ Menu: typeof realMenu }> }) {
  const trigger = useDeferredTrigger(load);
  if (trigger.module) return <trigger.module.Menu {...trigger.initial} />;
  return (
    <button type="button" {...trigger.placeholderProps}>
      Menu
    </button>
  );
}

/** The look-alike trigger of a fresh deferred menu, pressed (pointer over, then down), and how its code arrives. */
function pressed(pointerType = 'mouse') {
  const { load, arrive } = deferredLoader();
  render(<Trigger load={load} />);
  const placeholder = screen.getByRole('button', { name: 'Menu' });
  fireEvent.pointerEnter(placeholder, { pointerType });
  fireEvent.pointerDown(placeholder, { buttons: 1, pointerType });
  return { placeholder, arrive };
}

describe('useDeferredTrigger', () => {
  it('keeps the look-alike through a press during which the code arrives, and opens on its click', async () => {
    const { placeholder, arrive } = pressed();
    await arrive();
    // Swapped now, the button under the pointer would get no click.
    expect(screen.getByRole('button', { name: 'Menu' })).toBe(placeholder);
    fireEvent.pointerUp(placeholder);
    fireEvent.click(placeholder);
    expect(await screen.findByRole('button', { name: 'Menu real, aberto' })).toBeInTheDocument();
  });

  it('a press dragged off the button lets the real one in, closed', async () => {
    const { placeholder, arrive } = pressed();
    await arrive();
    fireEvent.pointerLeave(placeholder, { buttons: 1 });
    expect(await screen.findByRole('button', { name: 'Menu real, fechado' })).toBeInTheDocument();
  });

  it('a touch leaves before its click: still a press, and the click opens it', async () => {
    const { placeholder, arrive } = pressed('touch');
    fireEvent.pointerUp(placeholder, { pointerType: 'touch' });
    fireEvent.pointerLeave(placeholder, { buttons: 0, pointerType: 'touch' });
    await arrive();
    expect(screen.getByRole('button', { name: 'Menu' })).toBe(placeholder);
    fireEvent.click(placeholder);
    expect(await screen.findByRole('button', { name: 'Menu real, aberto' })).toBeInTheDocument();
  });
});
