import { Button, Image, Radio } from 'antd';
import { useState } from 'react';
import { imageUrl, type ProductPage } from '@shared/api';
import { pagePhotosOf } from '@shared/product-card';
import { API_HOST } from '@/api/config';

/**
 * The product's photos for the chosen colour: the one shown, thumbnails to choose another (arrow
 * keys move between them), and antd's preview to see them large (its own arrows and keys, pinch
 * and drag on a touch screen, Esc to close). Keyed by colour by its parent: a new colour starts at its cover.
 */
export function ProductGallery({ product, colour }: { product: ProductPage; colour: string | undefined }) {
  const photos = pagePhotosOf(product, colour).map((name) => imageUrl(API_HOST, name));
  const [shown, setShown] = useState(0);
  const [open, setOpen] = useState(false);
  const photoName = (index: number) =>
    photos.length > 1 ? `${product.name}, фото ${index + 1} из ${photos.length}` : product.name;

  return (
    <div className="product-gallery">
      <Image.PreviewGroup
        items={photos}
        // The preview takes its picture's text from here, not from the item (rc-image).
        preview={{
          open,
          onOpenChange: setOpen,
          current: shown,
          onChange: setShown,
          alt: photoName(shown),
          // Its own count, on a dark ground: antd's grey «1 / 1» over a light photo cannot be read.
          countRender: (current, total) =>
            total > 1 ? <span className="product-preview-count">{`Фото ${current} из ${total}`}</span> : null,
        }}
      >
        <Image
          rootClassName="product-image"
          src={photos[shown]}
          alt={photoName(shown)}
          preview={{ cover: 'Увеличить' }}
        />
      </Image.PreviewGroup>
      <div className="product-gallery-choices">
        {photos.length > 1 && (
          <Radio.Group
            aria-label="Фото товара"
            optionType="button"
            value={shown}
            onChange={(event) => setShown(event.target.value as number)}
            options={photos.map((src, index) => ({
              value: index,
              label: <img src={src} alt={`Фото ${index + 1}`} width={56} height={56} loading="lazy" />,
            }))}
          />
        )}
        <Button type="link" onClick={() => setOpen(true)}>
          Открыть фото крупно
        </Button>
      </div>
    </div>
  );
}
