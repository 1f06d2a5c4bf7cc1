/**
 * Redraws a block of lines on a terminal: each frame moves the cursor up over the previous frame and
 * clears to the end of the screen. On anything that is not a terminal it writes nothing at all, so
 * redirected output and logs stay clean.
 */
export interface LiveDisplay {
  /** Whether frames are being drawn. */
  readonly active: boolean;
  /** Draws the frame `render()` returns now (throttled by the caller's interval as well). */
  refresh(): void;
  /** Draws the final frame, shows the cursor again and stops the timer. */
  stop(options?: { clear?: boolean }): void;
}

export function createLiveDisplay(options: {
  write: (text: string) => void;
  enabled: boolean;
  render: () => string;
  /** Redraw interval for the spinner and clocks. Default 100 ms. */
  intervalMs?: number;
}): LiveDisplay {
  if (!options.enabled) {
    return { active: false, refresh: () => undefined, stop: () => undefined };
  }
  let previousLines = 0;
  let stopped = false;
  const draw = (frame: string) => {
    const up = previousLines > 0 ? `\u001b[${previousLines}A\r` : '';
    options.write(`${up}\u001b[J${frame}`);
    previousLines = frame.endsWith('\n') ? frame.split('\n').length - 1 : frame.split('\n').length;
  };
  options.write('\u001b[?25l');
  draw(options.render());
  const timer = setInterval(() => draw(options.render()), options.intervalMs ?? 100);
  timer.unref();
  return {
    get active() {
      return !stopped;
    },
    refresh() {
      if (!stopped) draw(options.render());
    },
    stop(stopOptions) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (stopOptions?.clear) {
        options.write(previousLines > 0 ? `\u001b[${previousLines}A\r\u001b[J` : '');
      } else {
        draw(options.render());
      }
      options.write('\u001b[?25h');
    },
  };
}
