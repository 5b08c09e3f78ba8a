import { HIDDEN_PRICES, type PriceView } from '../domain/wholesale-price';
import type { CatalogueTypes, PriceTypesRepository } from '../repositories/price-types';
import type { SettingsRepository } from '../repositories/settings';

/** The app setting of «показывать цены только после входа»: 'false' hides them from visitors. */
export const PRICES_FOR_VISITORS_SETTING = 'prices_for_visitors';

/** The most signed-in buyers whose view a process remembers; beyond it, the oldest are forgotten. */
const MAX_REMEMBERED_BUYERS = 50_000;

interface Sources {
  priceTypes: Pick<PriceTypesRepository, 'catalogueTypes'>;
  settings: Pick<SettingsRepository, 'get'>;
  /** The price type of the account's company (null: the default type), or undefined: no such account. */
  companyPriceTypeOf(userId: number): Promise<number | null | undefined>;
}

/**
 * Each caller's PriceView, remembered until anything it depends on changes: a price type, a
 * company's type, an employee's company, the setting — all announced on the catalogue's channel at
 * commit (migration 0031's triggers, the settings route), so every process forgets at once. A
 * remembered view is returned without a promise, as the catalogue's kept answers are.
 */
export class PriceViews {
  private generation = 0;
  private suspended = false;
  private types: Promise<CatalogueTypes> | null = null;
  private visitor: PriceView | null = null;
  private readonly buyers = new Map<number, PriceView>();

  constructor(private readonly sources: Sources) {}

  invalidate(): void {
    this.generation += 1;
    this.types = null;
    this.visitor = null;
    this.buyers.clear();
  }

  /** While changes made elsewhere may go unnoticed, views are read afresh and not remembered. */
  suspend(): void {
    this.suspended = true;
    this.invalidate();
  }

  resume(): void {
    this.suspended = false;
    this.invalidate();
  }

  /** The visitor's view if remembered, else undefined (then `forVisitor`). */
  visitorNow(): PriceView | undefined {
    return this.visitor ?? undefined;
  }

  buyerNow(userId: number): PriceView | undefined {
    return this.buyers.get(userId);
  }

  async forVisitor(): Promise<PriceView> {
    const generation = this.generation;
    const [types, shown] = await Promise.all([
      this.catalogueTypes(),
      this.sources.settings.get(PRICES_FOR_VISITORS_SETTING),
    ]);
    const view: PriceView = shown === 'false' ? HIDDEN_PRICES : viewOf(types, types.defaultTypeId);
    if (this.keeps(generation)) this.visitor = view;
    return view;
  }

  /** The signed-in account's view, or null when there is no such account (deleted meanwhile). */
  async forBuyer(userId: number): Promise<PriceView | null> {
    const generation = this.generation;
    const [types, typeId] = await Promise.all([this.catalogueTypes(), this.sources.companyPriceTypeOf(userId)]);
    if (typeId === undefined) return null;
    const view = viewOf(types, typeId ?? types.defaultTypeId);
    if (this.keeps(generation)) {
      if (this.buyers.size >= MAX_REMEMBERED_BUYERS) this.buyers.delete(this.buyers.keys().next().value!);
      this.buyers.set(userId, view);
    }
    return view;
  }

  /** The default and the RRP type, as every priced read needs them (the back office's too). */
  catalogueTypes(): Promise<CatalogueTypes> {
    if (this.suspended) return this.sources.priceTypes.catalogueTypes();
    this.types ??= this.sources.priceTypes.catalogueTypes().catch((error: unknown) => {
      this.types = null;
      throw error;
    });
    return this.types;
  }

  private keeps(generation: number): boolean {
    return !this.suspended && generation === this.generation;
  }
}

function viewOf({ defaultTypeId, rrpTypeId }: CatalogueTypes, typeId: number): PriceView {
  return { key: `t${typeId}`, types: { typeId, defaultTypeId }, rrpTypeId };
}
