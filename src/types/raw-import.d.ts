/**
 * `import text from './file.css?raw'`: the file's text as a string. Vite (tests) does this natively; tsup
 * does it with the `raw-text` plugin in tsup.config.ts, so the page assets are bundled into dist/cli.cjs.
 */
declare module '*?raw' {
  const text: string;
  export default text;
}
