import { Button, Checkbox, InputNumber, Select } from 'antd';
import { useState } from 'react';
import { type CatalogueFilters } from '@shared/api';
import { CATALOGUE_LIMITS } from '@shared/catalogue';
import type { CatalogueSort } from '@shared/catalogue-sorts';
import { catalogueApi } from './catalogueApi';

// Injected here, with the catalogue page's chunk: the home page's first load (catalogueApi) stays as it was.
const { useGetCategoryColorsQuery } = catalogueApi.injectEndpoints({
  endpoints: (build) => ({
    /** The colours of a category's products, the colour filter's choices. */
    getCategoryColors: build.query<string[], string>({
      query: (category) => `api/v1/products/categories/${encodeURIComponent(category)}/colors`,
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
  }),
});

/** The sort Select's choice for SPEC's own order (no `sort` in the address). */
const BY_DEFAULT = 'default';

type SortChoice = CatalogueSort | typeof BY_DEFAULT;

const SORT_OPTIONS: { value: SortChoice; label: string }[] = [
  { value: BY_DEFAULT, label: 'По умолчанию' },
  { value: 'price_asc', label: 'Сначала дешевле' },
  { value: 'price_desc', label: 'Сначала дороже' },
  { value: 'name', label: 'По названию' },
  { value: 'new', label: 'Сначала новые' },
];

interface BoundInputProps {
  label: string;
  placeholder: string;
  value: number | undefined;
  max: number;
  /** Digits after the comma a value keeps: 0 for centimetres, 2 for kopecks. */
  fractionDigits: number;
  onCommit(value: number | undefined): void;
}

/**
 * One end of a range. What is typed is applied when the buyer leaves the field or presses Enter,
 * not on every keystroke, which would read a page for each digit of «1500». A value is shown as
 * typed, with the Russian decimal comma («800», «799,5»; a point is read too), never padded to
 * «800.00»; digits beyond `fractionDigits` are rounded off when it is applied.
 */
function BoundInput({ label, placeholder, value, max, fractionDigits, onCommit }: BoundInputProps) {
  const [draft, setDraft] = useState<number | null>(value ?? null);
  const [applied, setApplied] = useState(value);
  // The address changed under the field (a reset, Back): show what it says now.
  if (applied !== value) {
    setApplied(value);
    setDraft(value ?? null);
  }
  const commit = () => {
    const next = draft === null ? undefined : Number(draft.toFixed(fractionDigits));
    if (next !== draft) setDraft(next ?? null);
    if (next !== value) onCommit(next);
  };
  return (
    <InputNumber
      aria-label={label}
      placeholder={placeholder}
      className="catalogue-bound"
      min={0}
      max={max}
      decimalSeparator=","
      value={draft}
      onChange={setDraft}
      onBlur={commit}
      onPressEnter={commit}
    />
  );
}

interface RangeProps {
  legend: string;
  label: string;
  from: number | undefined;
  to: number | undefined;
  max: number;
  fractionDigits: number;
  onChange(from: number | undefined, to: number | undefined): void;
}

/** «от» and «до» of one range; a lower end above the upper one moves the upper one up to it. */
function Range({ legend, label, from, to, max, fractionDigits, onChange }: RangeProps) {
  return (
    <fieldset className="catalogue-field catalogue-range">
      <legend>{legend}</legend>
      <BoundInput
        label={`${label} от`}
        placeholder="от"
        value={from}
        max={max}
        fractionDigits={fractionDigits}
        onCommit={(next) => onChange(next, next !== undefined && to !== undefined && next > to ? next : to)}
      />
      <span aria-hidden="true">–</span>
      <BoundInput
        label={`${label} до`}
        placeholder="до"
        value={to}
        max={max}
        fractionDigits={fractionDigits}
        onCommit={(next) => onChange(next !== undefined && from !== undefined && next < from ? next : from, next)}
      />
    </fieldset>
  );
}

interface CatalogueFilterBarProps {
  category: string | undefined;
  filters: CatalogueFilters;
  onChange(filters: CatalogueFilters): void;
}

/** The catalogue's order and filters; what it shows is what the address says. */
export function CatalogueFilterBar({ category, filters, onChange }: CatalogueFilterBarProps) {
  const { data: colors = [], isFetching: colorsLoading } = useGetCategoryColorsQuery(category ?? '', {
    skip: !category,
  });
  const change = (changed: CatalogueFilters) => onChange({ ...filters, ...changed });
  const filtered = Object.keys(filters).some((name) => name !== 'sort');

  return (
    <>
      <div className="catalogue-field">
        <label htmlFor="sort-select">Сортировка</label>
        <Select<SortChoice>
          id="sort-select"
          className="sort-select"
          value={filters.sort ?? BY_DEFAULT}
          onChange={(value) => change({ sort: value === BY_DEFAULT ? undefined : value })}
          options={SORT_OPTIONS}
        />
      </div>
      <div className="catalogue-field">
        <label htmlFor="color-select">Цвет</label>
        <Select
          id="color-select"
          className="color-select"
          value={filters.color}
          placeholder="Любой"
          allowClear
          loading={colorsLoading}
          onChange={(value?: string) => change({ color: value })}
          options={colors.map((color) => ({ value: color, label: color }))}
        />
      </div>
      <Range
        legend="Размер, см"
        label="Размер"
        from={filters.size_min}
        to={filters.size_max}
        max={CATALOGUE_LIMITS.sizeMax}
        fractionDigits={0}
        onChange={(size_min, size_max) => change({ size_min, size_max })}
      />
      <Range
        legend="Цена, ₽"
        label="Цена"
        from={filters.price_min}
        to={filters.price_max}
        max={CATALOGUE_LIMITS.priceMax}
        fractionDigits={2}
        onChange={(price_min, price_max) => change({ price_min, price_max })}
      />
      <Checkbox
        className="catalogue-in-stock"
        checked={Boolean(filters.in_stock)}
        onChange={(event) => change({ in_stock: event.target.checked || undefined })}
      >
        В наличии
      </Checkbox>
      {filtered && (
        <Button onClick={() => onChange(filters.sort ? { sort: filters.sort } : {})}>Сбросить фильтры</Button>
      )}
    </>
  );
}
