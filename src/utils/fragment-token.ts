// A token an e-mail link carries in the URL's fragment (/acesso#token=…, /descadastrar#token=…): the
// browser never sends a fragment to a server, and a link scanner that does not run the page cannot use
// it. Read once, then removed from the address bar (history, screenshots, a shared screen).
export function readFragmentToken(valid: RegExp): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) window.history.replaceState(null, '', window.location.pathname);
  return token && valid.test(token) ? token : null;
}
