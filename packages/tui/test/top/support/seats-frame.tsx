import type { Snapshot } from '@routeplane/shared';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { SeatsPanel } from '../../../src/top/ui/components/SeatsPanel.js';
import { ThemeContext } from '../../../src/top/ui/components/theme-context.js';
import { seatRows } from '../../../src/top/ui/lines/seat-lines.js';
import { createTheme } from '../../../src/top/ui/theme.js';
import { stateFrom } from './state.js';

/** The seats panel of `snapshot` at `width` columns, uncoloured, as its lines (reset times read 16:17). */
export function seatsFrame(snapshot: Snapshot, width: number, now: number): string[] {
  const state = stateFrom(snapshot);
  const { lastFrame } = render(
    <ThemeContext.Provider value={createTheme({ colour: false })}>
      {
        (
          <SeatsPanel
            rows={seatRows(state.seats, { clock: { now, stale: false }, timeOfDay: () => '16:17' })}
            now={now}
            width={width}
            height={8}
            selectedKey={null}
            greyed={false}
          />
        ) as ReactElement
      }
    </ThemeContext.Provider>,
  );
  return (lastFrame() ?? '').split('\n');
}
