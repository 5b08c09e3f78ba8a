/**
 * The catalogue's orders besides SPEC's by id (docs/decisions.md): by the lowest price among the
 * variants that pass the filters, by name, newest first. Here, not in api.ts, which the home page's
 * first load carries, nor in catalogueFilters.ts, whose filters' type comes from the schema that
 * takes these.
 */
export const CATALOGUE_SORTS = ['price_asc', 'price_desc', 'name', 'new'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
