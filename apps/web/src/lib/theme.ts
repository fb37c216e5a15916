/** Light, dark, or the system's choice; remembered in localStorage (not a secret). */
export type Theme = 'system' | 'light' | 'dark';

const STORAGE = 'skillport.theme';

export function storedTheme(): Theme {
  try {
    const value = window.localStorage.getItem(STORAGE);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
  try {
    if (theme === 'system') window.localStorage.removeItem(STORAGE);
    else window.localStorage.setItem(STORAGE, theme);
  } catch {
    // not remembered
  }
}
