import { useEffect, useId, useState } from 'react';
import { Search } from 'lucide-react';
import { Input } from './input';

/** How long typing pauses before the list is searched (one request per pause, not per key). */
const SEARCH_DELAY_MS = 300;

/**
 * The search box of a server-side list. `value` is the searched text (from the URL); typing searches
 * after a pause, and a value changed from outside (back button) shows in the box.
 */
export function ListSearch({ label, placeholder, value, onSearch }: { label: string; placeholder?: string; value: string; onSearch: (query: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <div className="relative w-full max-w-md">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input id={id} type="search" placeholder={placeholder} className="pl-9" value={text} onChange={(e) => setText(e.target.value)} />
    </div>
  );
}
