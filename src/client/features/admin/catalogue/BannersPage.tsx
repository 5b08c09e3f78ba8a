import { Form, Input, Switch, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { imageUrl, type AdminBanner, type BannerFields } from '@shared/api';
import { bannerUrlProblem, CATALOGUE_LIMITS } from '@shared/catalogue';
import { API_HOST } from '@/api/config';
import {
  useCreateBannerMutation,
  useDeleteBannerMutation,
  useGetAdminBannersQuery,
  useUpdateBannerMutation,
} from './catalogueAdminApi';
import { CatalogueList, RowActions, useRowAction } from './CatalogueList';
import { EditDialog, PositionItem } from './EditDialog';
import { ImageField } from './ImageField';
import './catalogueAdmin.css';

interface BannerForm {
  image?: string;
  url?: string;
  position?: number | null;
  active: boolean;
}

const bannerName = ({ id }: AdminBanner) => `Баннер №${id}`;

function bannerFields({ image, url, position, active }: BannerForm): BannerFields {
  return {
    image: image!,
    url: url?.trim() || null,
    active,
    ...(typeof position === 'number' ? { position } : {}),
  };
}

/** Only what the dialog changed. */
function bannerChanges(banner: AdminBanner, form: BannerForm): Partial<BannerFields> {
  return Object.fromEntries(
    Object.entries(bannerFields(form)).filter(([key, value]) => banner[key as keyof AdminBanner] !== value),
  );
}

// Mounted afresh for each opening, so its form starts from the banner being changed.
function BannerDialog({ banner, onClose }: { banner?: AdminBanner; onClose(): void }) {
  const [create, creating] = useCreateBannerMutation();
  const [update, updating] = useUpdateBannerMutation();

  const save = async (values: BannerForm) => {
    if (!banner) {
      await create(bannerFields(values)).unwrap();
      return 'Баннер добавлен';
    }
    const patch = bannerChanges(banner, values);
    if (!Object.keys(patch).length) return null;
    await update({ id: banner.id, patch }).unwrap();
    return 'Баннер сохранён';
  };

  return (
    <EditDialog<BannerForm>
      title={banner ? bannerName(banner) : 'Новый баннер'}
      initialValues={banner ? { ...banner, url: banner.url ?? '' } : { active: true }}
      saving={creating.isLoading || updating.isLoading}
      save={save}
      failureText="Не удалось сохранить баннер"
      onClose={onClose}
    >
      <Form.Item
        label="Картинка"
        name="image"
        extra="Лучше всего 1200 × 400 пикселей"
        rules={[{ required: true, message: 'Загрузите картинку' }]}
      >
        <ImageField alt="Картинка баннера" />
      </Form.Item>
      <Form.Item
        label="Ссылка"
        name="url"
        extra="Страница магазина (/catalog) или полный адрес (https://…); пусто — без ссылки"
        rules={[
          {
            validator: async (_rule, url?: string) => {
              const problem = url?.trim() ? bannerUrlProblem(url.trim()) : null;
              if (problem) throw new Error(problem);
            },
          },
          { max: CATALOGUE_LIMITS.urlMax, message: `Не длиннее ${CATALOGUE_LIMITS.urlMax} символов` },
        ]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <PositionItem label="Позиция" adding={!banner} whenEmpty="Пусто — последним" />
      <Form.Item label="Показывать на витрине" name="active" valuePropName="checked">
        <Switch />
      </Form.Item>
    </EditDialog>
  );
}

/** Баннеры: the home page's slides, their order, links and whether each is shown. */
export default function BannersPage() {
  const { data: banners, isFetching, isError } = useGetAdminBannersQuery();
  const [update] = useUpdateBannerMutation();
  const [remove] = useDeleteBannerMutation();
  const [editing, setEditing] = useState<{ banner?: AdminBanner } | null>(null);
  const { attempt, failure, dismissFailure } = useRowAction();

  const columns: TableColumnsType<AdminBanner> = [
    {
      title: 'Картинка',
      dataIndex: 'image',
      width: 140,
      render: (image: string, banner) => (
        <img
          className="catalogue-admin-banner-thumbnail"
          src={imageUrl(API_HOST, image)}
          alt={bannerName(banner)}
          width={120}
          height={40}
          loading="lazy"
        />
      ),
    },
    { title: 'Ссылка', dataIndex: 'url', render: (url: string | null) => url ?? '—' },
    { title: 'Позиция', dataIndex: 'position', align: 'right', width: 100 },
    {
      title: 'Показывать',
      dataIndex: 'active',
      width: 120,
      render: (active: boolean, banner) => (
        <Switch
          checked={active}
          aria-label={`Показывать: ${bannerName(banner)}`}
          onChange={(checked) =>
            attempt(
              () => update({ id: banner.id, patch: { active: checked } }).unwrap(),
              checked ? 'Баннер показан на витрине' : 'Баннер скрыт с витрины',
              'Не удалось изменить баннер',
            )
          }
        />
      ),
    },
    {
      title: 'Действия',
      key: 'actions',
      width: 120,
      render: (_value, banner) => (
        <RowActions
          editLabel={`Изменить: ${bannerName(banner)}`}
          deleteLabel={`Удалить: ${bannerName(banner)}`}
          confirmDelete="Удалить баннер?"
          onEdit={() => setEditing({ banner })}
          onDelete={() => attempt(() => remove(banner.id).unwrap(), 'Баннер удалён', 'Не удалось удалить баннер')}
        />
      ),
    },
  ];

  return (
    <CatalogueList
      title="Баннеры"
      addLabel="Добавить баннер"
      onAdd={() => setEditing({})}
      loadFailure={isError ? 'Не удалось загрузить баннеры' : undefined}
      failure={failure}
      onDismissFailure={dismissFailure}
      columns={columns}
      rows={banners}
      loading={isFetching}
      emptyText="Баннеров нет"
    >
      {editing && <BannerDialog banner={editing.banner} onClose={() => setEditing(null)} />}
    </CatalogueList>
  );
}
