// Entry point of the Skillport web catalogue.
import { render } from 'preact';
import { App } from './app.js';
import { applyTheme, storedTheme } from './lib/theme.js';
import './styles.css';

applyTheme(storedTheme());
const root = document.getElementById('app');
if (root) render(<App />, root);
