/**
 * The dashboard page, its script, its style sheet and the icons, bundled as text. Nothing is read from disk
 * at run time and nothing refers to another origin (docs/invariants.md, "Servers safe by default").
 */
import type { ServeSettings } from '../settings.js';
import appCss from './app.css?raw';
import appJs from './app.js?raw';
import costViewJs from './cost-view.js?raw';
import domJs from './dom.js?raw';
import formatJs from './format.js?raw';
import codexbarIcon from './icons/codexbar.svg?raw';
import cursorIcon from './icons/cursor.svg?raw';
import indexHtml from './index.html?raw';
import usageViewJs from './usage-view.js?raw';

export interface PageAsset {
  type: string;
  body: Buffer;
}

export interface PageAssets {
  index: PageAsset;
  files: ReadonlyMap<string, PageAsset>;
  /** By path, like `files`: `/icons/cursor.svg`. */
  icons: ReadonlyMap<string, PageAsset>;
}

/** Only the server itself: script and style from this origin, no inline code, no frames, no forms. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
/** The page's ES modules, served under /js/ (app.js imports the others by relative path). */
const SCRIPTS: Record<string, string> = {
  'app.js': appJs,
  'cost-view.js': costViewJs,
  'dom.js': domJs,
  'format.js': formatJs,
  'usage-view.js': usageViewJs,
};
const SVG = 'image/svg+xml';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function pageAssets(settings: ServeSettings, version: string): PageAssets {
  const values: Record<string, string> = {
    REFRESH_SECONDS: String(settings.refreshIntervalSeconds),
    // `bearer` when /usage and /cost need the dashboard token (a non-loopback bind).
    AUTH: settings.loopback ? 'none' : 'bearer',
    VERSION: version,
  };
  const html = indexHtml.replace(/\{\{([A-Z_]+)\}\}/g, (match, name: string) =>
    name in values ? escapeHtml(values[name]!) : match,
  );
  const asset = (type: string, text: string): PageAsset => ({ type, body: Buffer.from(text, 'utf8') });
  return {
    index: asset(HTML, html),
    files: new Map([
      ...Object.entries(SCRIPTS).map(([name, text]) => [`/js/${name}`, asset(JS, text)] as const),
      ['/app.css', asset('text/css; charset=utf-8', appCss)],
    ]),
    icons: new Map([
      ['/icons/cursor.svg', asset(SVG, cursorIcon)],
      ['/icons/codexbar.svg', asset(SVG, codexbarIcon)],
    ]),
  };
}
