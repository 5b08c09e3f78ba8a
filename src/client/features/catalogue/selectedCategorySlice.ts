import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { STORAGE_KEYS } from '@shared/api';
import type { AppStartListening } from '@/app/listeners';

export function loadSelectedCategory(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.selectedCategory);
  } catch {
    return null;
  }
}

export const selectedCategorySlice = createSlice({
  name: 'selectedCategory',
  initialState: null as string | null,
  reducers: {
    categorySelected: (_state, action: PayloadAction<string>) => action.payload,
  },
  selectors: {
    selectSelectedCategory: (state) => state,
  },
});

export const { categorySelected } = selectedCategorySlice.actions;
export const { selectSelectedCategory } = selectedCategorySlice.selectors;

export function addSelectedCategoryListeners(startAppListening: AppStartListening): void {
  startAppListening({
    actionCreator: categorySelected,
    effect: ({ payload }) => localStorage.setItem(STORAGE_KEYS.selectedCategory, payload),
  });
}
