import { Box, Text } from 'ink';
import type { Line } from '../lines/line.js';
import { useTheme } from './theme-context.js';

/**
 * Paints laid-out lines, one terminal row each. `height` pads with blank
 * rows so a panel keeps its place; `greyed` (stale data while disconnected)
 * drops colour and dims everything but the selection.
 */
export function Lines({ lines, height, greyed = false }: { lines: readonly Line[]; height?: number; greyed?: boolean }) {
  const theme = useTheme();
  const rows = height === undefined ? lines : lines.slice(0, height);
  const blanks = height === undefined ? 0 : Math.max(0, height - rows.length);
  return (
    <Box flexDirection="column" flexShrink={0}>
      {rows.map((line, i) => (
        <Box key={line.key ?? `line-${i}`} height={1} flexShrink={0}>
          <Text wrap="truncate-end">
            {line.segments.length === 0
              ? ' '
              : line.segments.map((segment, j) => {
                  const props = theme.props(segment.tone);
                  const shown = greyed ? { dimColor: true, inverse: props.inverse } : props;
                  return (
                    <Text key={j} {...shown}>
                      {segment.text}
                    </Text>
                  );
                })}
          </Text>
        </Box>
      ))}
      {Array.from({ length: blanks }, (_, i) => (
        <Box key={`blank-${i}`} height={1} flexShrink={0}>
          <Text> </Text>
        </Box>
      ))}
    </Box>
  );
}
