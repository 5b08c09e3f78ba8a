import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Space, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { imageUrl, type AdminProduct, type PhotosChange } from '@shared/api';
import { KIT_PHOTO, PRODUCT_CARD_LIMITS } from '@shared/product-card';
import { API_HOST } from '@/api/config';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useSetProductPhotosMutation, useUploadImageMutation } from './catalogueAdminApi';
import './catalogueAdmin.css';

/** What the server takes (it recognises the format by content; this only narrows the file dialog). */
const ACCEPTED = '.jpg,.jpeg,.png,.webp,.avif,image/jpeg,image/png,image/webp,image/avif';
const MAX_BYTES = 10 * 1024 * 1024;
const SMALL_WARNING = `меньше ${KIT_PHOTO.width}×${KIT_PHOTO.height} — маркетплейс может не принять`;

/** A photo in the editor: its name and whether its master is too small for a marketplace. */
interface EditedPhoto {
  name: string;
  small: boolean;
}

/** A set of photos: the product's own (color null) or its variants' of one colour. */
interface EditedSet {
  color: string | null;
  photos: EditedPhoto[];
}

/** Every set the product may have, its own first, then each colour of its variants, with what it has now. */
function setsOf(product: AdminProduct): EditedSet[] {
  const colors = [null, ...new Set(product.variants.map((variant) => variant.color))];
  return colors.map((color) => ({
    color,
    photos: (product.photos.find((set) => set.color === color)?.images ?? []).map((image) => ({
      name: image.name,
      small: image.small_for_marketplace,
    })),
  }));
}

const setTitle = (color: string | null) => (color === null ? 'Фото товара' : `Цвет «${color}»`);

/** Moves the item at `from` by `step` places (−1 left, +1 right). */
function moved<T>(items: readonly T[], from: number, step: number): T[] {
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(from + step, 0, item!);
  return copy;
}

interface PhotoSetProps {
  /** The set's place on the page: its upload's id. */
  index: number;
  set: EditedSet;
  onChange(photos: EditedPhoto[]): void;
}

/** One set's thumbnails in order, the first its cover, with an upload to add more. */
function PhotoSetCard({ index: setIndex, set, onChange }: PhotoSetProps) {
  const [upload, { isLoading }] = useUploadImageMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const title = setTitle(set.color);
  const full = set.photos.length >= PRODUCT_CARD_LIMITS.photosMax;
  const uploadId = `product-photos-${setIndex}`;

  const send = async (file: File) => {
    setFailure(null);
    if (file.size > MAX_BYTES) {
      setFailure('Файл больше 10 МБ');
      return;
    }
    try {
      const uploaded = await upload(file).unwrap();
      if (set.photos.some((photo) => photo.name === uploaded.name)) {
        setFailure('Это фото уже есть в наборе');
        return;
      }
      onChange([...set.photos, { name: uploaded.name, small: uploaded.small_for_marketplace }]);
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось загрузить фото');
    }
  };

  return (
    <Card size="small" title={title}>
      <Flex vertical gap="small">
        {set.photos.length === 0 && <Typography.Text type="secondary">Фото нет</Typography.Text>}
        <Flex wrap gap="middle" role="list" aria-label={title}>
          {set.photos.map((photo, index) => {
            const label = `${title}, фото ${index + 1}`;
            return (
              <Flex key={photo.name} vertical gap={4} align="center" role="listitem" aria-label={label}>
                <img
                  className="catalogue-admin-thumbnail"
                  src={imageUrl(API_HOST, photo.name)}
                  alt={label}
                  width={96}
                  height={128}
                />
                <Space size={4} wrap>
                  {index === 0 && <Tag color="blue">обложка</Tag>}
                  {photo.small && <Tag color="warning">{SMALL_WARNING}</Tag>}
                </Space>
                <Space size={0}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowLeftOutlined />}
                    aria-label={`Переместить влево: ${label}`}
                    disabled={index === 0}
                    onClick={() => onChange(moved(set.photos, index, -1))}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowRightOutlined />}
                    aria-label={`Переместить вправо: ${label}`}
                    disabled={index === set.photos.length - 1}
                    onClick={() => onChange(moved(set.photos, index, 1))}
                  />
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Убрать: ${label}`}
                    onClick={() => onChange(set.photos.filter((_photo, i) => i !== index))}
                  />
                </Space>
              </Flex>
            );
          })}
        </Flex>
        <label htmlFor={uploadId} className="admin-visually-hidden">
          {`Файл фото: ${title}`}
        </label>
        <Upload
          id={uploadId}
          accept={ACCEPTED}
          showUploadList={false}
          disabled={full}
          beforeUpload={(file) => {
            void send(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} loading={isLoading} disabled={full}>
            {`Добавить фото: ${title}`}
          </Button>
        </Upload>
        {failure && <Alert type="error" showIcon title={failure} />}
      </Flex>
    </Card>
  );
}

/**
 * The product's photos for marketplace cards: its own set and one per colour of its variants, each
 * in order (the first is the cover; the own set's becomes the product's picture). Saved apart from
 * the form above, with PUT …/photos, which replaces them all.
 */
export function PhotosEditor({ product }: { product: AdminProduct }) {
  const { message } = App.useApp();
  const [sets, setSets] = useState(() => setsOf(product));
  const [save, { isLoading }] = useSetProductPhotosMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const smallCount = sets.reduce((total, set) => total + set.photos.filter((photo) => photo.small).length, 0);

  const submit = async () => {
    setFailure(null);
    const body: PhotosChange = sets
      .filter((set) => set.photos.length > 0)
      .map((set) => ({ color: set.color, images: set.photos.map((photo) => photo.name) }));
    try {
      await save({ id: product.id, sets: body }).unwrap();
      message.success('Фото сохранены');
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось сохранить фото');
    }
  };

  return (
    <Flex vertical gap="middle" style={{ maxWidth: 960 }}>
      <Typography.Title level={2}>Фото для маркетплейсов</Typography.Title>
      <Typography.Paragraph type="secondary">
        Первое фото набора — обложка; первое фото товара становится его картинкой на витрине. Фото цвета показываются в
        карточке этого цвета, без них — фото товара. Сохраните изменения товара выше до сохранения фото.
      </Typography.Paragraph>
      {smallCount > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`Фото ${SMALL_WARNING}: ${smallCount}`}
          description={`Загрузите фото не меньше ${KIT_PHOTO.width} пикселей в ширину или ${KIT_PHOTO.height} в высоту.`}
        />
      )}
      {sets.map((set, index) => (
        <PhotoSetCard
          key={set.color ?? ''}
          index={index}
          set={set}
          onChange={(photos) =>
            setSets((current) => current.map((other, i) => (i === index ? { ...other, photos } : other)))
          }
        />
      ))}
      {failure && <Alert type="error" showIcon title={failure} />}
      <div>
        <Button type="primary" loading={isLoading} onClick={() => void submit()}>
          Сохранить фото
        </Button>
      </div>
    </Flex>
  );
}
