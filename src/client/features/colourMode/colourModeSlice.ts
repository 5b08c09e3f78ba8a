import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { STORAGE_KEYS } from '@shared/api';
import type { AppStartListening } from '@/app/listeners';

export const COLOUR_MODES = ['light', 'dark', 'system'] as const;
export type ColourMode = (typeof COLOUR_MODES)[number];

const isColourMode = (value: unknown): value is ColourMode => COLOUR_MODES.includes(value as ColourMode);

/** The stored choice; 'system' (SPEC §1 default) when nothing or something unknown is stored. */
export function loadColourMode(): ColourMode {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.colourMode);
    return isColourMode(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

export const colourModeSlice = createSlice({
  name: 'colourMode',
  initialState: 'system' as ColourMode,
  reducers: {
    colourModeChanged: (_state, action: PayloadAction<ColourMode>) => action.payload,
  },
  selectors: {
    selectColourMode: (state) => state,
  },
});

export const { colourModeChanged } = colourModeSlice.actions;
export const { selectColourMode } = colourModeSlice.selectors;

/** Light and dark are stored; 'system' removes the key so the default applies again. */
export function addColourModeListeners(startAppListening: AppStartListening): void {
  startAppListening({
    actionCreator: colourModeChanged,
    effect: ({ payload }) => {
      if (payload === 'system') localStorage.removeItem(STORAGE_KEYS.colourMode);
      else localStorage.setItem(STORAGE_KEYS.colourMode, payload);
    },
  });
}
