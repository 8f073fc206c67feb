import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

// As a transition, the first render yields to the browser every few milliseconds instead of holding
// the main thread for the whole tree (on a mid-range phone, one long task of a few hundred ms).
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
