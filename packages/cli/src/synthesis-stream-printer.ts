import type { CouncilSession, SynthesisTextPart } from '@council/core';
import type { Style } from './create-style.js';
import { stripTerminalControls } from './strip-terminal-controls.js';

export interface SynthesisStreamPrinter {
  /** Prints the next piece of the synthesis (the header first), holding back the contributors block. */
  write(part: SynthesisTextPart): void;
  /**
   * After the session: prints what the stream left out of the final answer (the parsed `synthesis.text` is
   * the truth) and ends the line. True when the answer was printed this way, so the rest of the output must
   * not print it again.
   */
  finish(session: Pick<CouncilSession, 'synthesis'>): boolean;
}

/** The answer's heading, the same whether it streamed or not. */
export function answerHeading(options: {
  chairman: string;
  strategy: string;
  mode: string;
  style: Style;
  simulated: boolean;
}): string {
  const { style: s } = options;
  return (
    s.bold(`Answer (chairman ${options.chairman}, ${options.strategy} strategy, ${options.mode} mode)`) +
    (options.simulated ? ` ${s.magenta('[simulated]')}` : '')
  );
}

/** A fenced block whose body is the chairman's metadata (design §7.2), which the answer does not show. */
function isMetadataBlock(body: string): boolean {
  return /"contributors"\s*:/.test(body);
}

function normalise(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Streams the chairman's synthesis to stdout as it is written. Text passes through line by line (a line is
 * printed as soon as its first characters show it cannot open a fence or a JSON object); a fenced block is
 * held until it closes and dropped when it is the contributors block; a line opening with `{` (a bare
 * block) is held to the end. Terminal control sequences in the model's text are removed (`stripTerminalControls`). `finish` reconciles with the parsed answer. When a chairman fails and a
 * fallback takes over, a marked line says so and the new answer starts.
 */
export function createSynthesisStreamPrinter(options: {
  write: (text: string) => void;
  style: Style;
  simulated: boolean;
  onStart?: () => void;
}): SynthesisStreamPrinter {
  const { write, style: s } = options;
  let chairman: string | undefined;
  let held = '';
  let printed = '';
  let atLineStart = true;
  // Blank lines wait for the next printed line: those before the dropped block at the end are never printed.
  let blankLines = '';
  const emit = (text: string) => {
    if (text === '') return;
    const out = blankLines + text;
    blankLines = '';
    printed += out;
    // The model's text, not our styling: no escape sequence of its own reaches the terminal.
    write(stripTerminalControls(out));
  };

  /** Prints what can be printed of `held`; returns when the rest must wait for more text. */
  const drain = () => {
    while (held !== '') {
      const nl = held.indexOf('\n');
      if (!atLineStart) {
        const end = nl === -1 ? held.length : nl + 1;
        emit(held.slice(0, end));
        held = held.slice(end);
        atLineStart = nl !== -1;
        continue;
      }
      const line = nl === -1 ? held : held.slice(0, nl);
      const lead = line.trimStart();
      if (lead.startsWith('```')) {
        if (nl === -1) return;
        const close = /\n[ \t]*```[^\n]*\n/.exec(held.slice(nl));
        if (!close) return;
        const end = nl + close.index + close[0].length;
        const block = held.slice(0, end);
        held = held.slice(end);
        if (!isMetadataBlock(block.slice(nl + 1, nl + close.index))) emit(block);
        continue;
      }
      if (lead.startsWith('{')) return;
      if (nl !== -1 && lead === '') {
        blankLines += held.slice(0, nl + 1);
        held = held.slice(nl + 1);
        continue;
      }
      if (nl === -1) {
        // Too early to tell whether this line opens a fence or an object.
        if (lead === '' || '```'.startsWith(lead)) return;
        emit(held);
        held = '';
        atLineStart = false;
        return;
      }
      emit(held.slice(0, nl + 1));
      held = held.slice(nl + 1);
    }
  };

  return {
    write(part) {
      if (chairman === undefined) {
        options.onStart?.();
        write(
          `${answerHeading({ chairman: part.chairman, strategy: part.strategy, mode: part.mode, style: s, simulated: options.simulated })}\n\n`,
        );
      } else if (part.chairman !== chairman) {
        write(`\n\n${s.yellow(`[the chairman ${chairman} stopped; ${part.chairman} answers instead]`)}\n\n`);
        held = '';
        printed = '';
        blankLines = '';
        atLineStart = true;
      }
      chairman = part.chairman;
      held += part.text;
      drain();
    },
    finish(session) {
      if (chairman === undefined) return false;
      const synthesis = session.synthesis;
      if (synthesis === null || synthesis.model !== chairman) {
        // Every chairman failed after writing something: the rest of the output says so.
        write('\n\n');
        return false;
      }
      // Both sides normalised alike: core squeezes blank lines only when it cut a contributors block out.
      const shown = normalise(printed);
      const answer = normalise(synthesis.text);
      if (!answer.startsWith(shown)) {
        // What was printed is not the start of the answer: end the line and let the answer be rendered in full.
        write(printed.endsWith('\n') ? '\n' : '\n\n');
        return false;
      }
      let rest = answer.slice(shown.length);
      // Whitespace already printed after the last word is not printed twice.
      const printedTail = printed.length - printed.trimEnd().length;
      const restLead = rest.length - rest.trimStart().length;
      rest = rest.slice(Math.min(printedTail, restLead));
      write(`${stripTerminalControls(rest)}${(printed + rest).endsWith('\n') ? '' : '\n'}`);
      return true;
    },
  };
}
