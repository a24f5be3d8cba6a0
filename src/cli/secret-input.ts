import { ArgumentError, CodexbarError } from '../errors.js';
import type { InputStream, OutputStream } from './io.js';

/** More than any Cookie header or "Copy as cURL" command; a larger input is refused, not buffered. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The user pressed Ctrl-C or Ctrl-D at the prompt: nothing is read, nothing saved (exit 130 like a shell). */
class CancelledError extends CodexbarError {
  readonly code = 'cancelled';
  override readonly exitCode = 130;
}

/**
 * The secret `login` reads: all of stdin with `--stdin`, else a hidden prompt on the terminal. It is never an
 * argument (docs/invariants.md, "Never a credential shown"), and the prompt never echoes it.
 */
export async function readSecret(
  stdin: InputStream | undefined,
  prompt: OutputStream,
  options: { fromStdin: boolean; question: string },
): Promise<string> {
  if (options.fromStdin) return readAll(stdin);
  if (!stdin?.isTTY || typeof stdin.setRawMode !== 'function') {
    throw new ArgumentError(
      'codexbar login reads the cookie from the terminal, and stdin is not a terminal.',
      'Pipe it in with --stdin, e.g. `pbpaste | codexbar login --stdin` or `codexbar login --stdin < cookie.txt`.',
    );
  }
  return promptHidden(stdin, prompt, options.question);
}

async function readAll(stdin: InputStream | undefined): Promise<string> {
  if (!stdin) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_INPUT_BYTES)
      throw new ArgumentError('The input on stdin is larger than 1 MiB; paste only the Cookie header.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Raw mode, so nothing is echoed and the line has no length limit (a canonical-mode terminal cuts a line at
 * 4 KiB, shorter than some cookies). Enter ends the input unless the line ends with a `\` (a pasted curl
 * command continues on the next line); Backspace and Ctrl-U edit; Ctrl-C, and Ctrl-D on an empty line, cancel.
 */
function promptHidden(stdin: InputStream, prompt: OutputStream, question: string): Promise<string> {
  // Raw mode first: whatever is typed once the question shows is never echoed.
  stdin.setEncoding?.('utf8');
  stdin.setRawMode?.(true);
  stdin.resume();
  prompt.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    // 0: text; 1: after ESC; 2: inside a CSI/SS3 sequence (arrow keys and the like are dropped, not kept).
    let inEscape = 0;
    const finish = (outcome: () => void) => {
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.setRawMode?.(false);
      stdin.pause();
      prompt.write('\n');
      outcome();
    };
    const cancel = () => finish(() => reject(new CancelledError('Cancelled; nothing was saved.')));
    const onEnd = () => finish(() => resolve(value));
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (inEscape === 1) {
          inEscape = char === '[' || char === 'O' ? 2 : 0;
          continue;
        }
        if (inEscape === 2) {
          if (char >= '@' && char <= '~') inEscape = 0;
          continue;
        }
        if (char === '\u001b') {
          inEscape = 1;
          continue;
        }
        if (char === '\r' || char === '\n') {
          if (value.endsWith('\\')) {
            value = `${value.slice(0, -1)} `;
            continue;
          }
          if (value.trim() === '') continue;
          finish(() => resolve(value));
          return;
        }
        if (char === '\u0003' || (char === '\u0004' && value === '')) return cancel();
        if (char === '\u0004') return finish(() => resolve(value));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char === '\u0015') value = '';
        else if (char >= ' ' && value.length < MAX_INPUT_BYTES) value += char;
      }
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
  });
}
