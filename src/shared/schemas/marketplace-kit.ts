import { Type } from 'typebox';
import { MARKETPLACE_KIT_MAX_PRODUCTS } from '../marketplace-kit';
import { Id } from './common';

export const KitSelectionBody = Type.Object(
  {
    products: Type.Array(Id, {
      minItems: 1,
      maxItems: MARKETPLACE_KIT_MAX_PRODUCTS,
      description: 'Id товаров, видимых на витрине',
    }),
  },
  { additionalProperties: false },
);

/** The query of a download that a signed link may open instead of the bearer token. */
export const DownloadLinkQuery = Type.Object({
  link: Type.Optional(Type.String({ maxLength: 1000, description: 'Подписанная ссылка (POST /download-links)' })),
});

/** The selection's GET form, for a download link: ids separated by commas. */
export const KitSelectionQuery = Type.Object({
  products: Type.String({
    pattern: `^[0-9]{1,10}(,[0-9]{1,10}){0,${MARKETPLACE_KIT_MAX_PRODUCTS - 1}}$`,
    description: 'Id товаров через запятую',
  }),
  ...DownloadLinkQuery.properties,
});

export const DownloadLinkBody = Type.Object(
  {
    path: Type.String({
      maxLength: 4000,
      description:
        'Путь скачивания: /api/v1/order/{user_id}/{id}/marketplace-kit, /api/v1/cart/{user_id}/marketplace-kit, /api/v1/marketplace-kit?products=1,2,3 или (менеджеру) /api/v1/admin/exchange/runs/{id}/files/{name}',
    }),
  },
  { additionalProperties: false },
);

export const DownloadLinkSchema = Type.Object({
  url: Type.String({ description: 'Путь с параметром link; действует 90 секунд' }),
});
