import { createContext, useContext } from 'react';
import { createTheme, type Theme } from '../theme.js';

/** The theme for every painted line; the app root provides it (NO_COLOR decides which). */
export const ThemeContext = createContext<Theme>(createTheme({ colour: true }));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
