import { App, Select, Switch, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import type { ExchangePriceType, ExchangeWarehouse } from '@shared/api';
import { formatMoscowDateTimeNumeric } from '@shared/dates';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useGetPriceTypesQuery } from '../prices/pricesAdminApi';
import { emptyTable } from '../tableEmpty';
import { useMapExchangePriceTypeMutation, useSetExchangeWarehouseUsedMutation } from './exchangeAdminApi';

/** The Select's value for «Не загружать» (the API's null, which a Select does not take as a choice). */
const NOT_LOADED = 'none';

/** A tag saying how the type got its shop type; none while it fills nothing of its own accord. */
function MappingTag({ type }: { type: ExchangePriceType }) {
  if (type.mapped_by_manager) return <Tag color="processing">выбран менеджером</Tag>;
  if (type.price_type_id !== null) return <Tag>по названию</Tag>;
  return null;
}

/** «Типы цен 1С»: which of the shop's price types each of 1С's fills, or none. */
function PriceTypes({ priceTypes }: { priceTypes: ExchangePriceType[] }) {
  const { message } = App.useApp();
  const { data: shopTypes, isFetching } = useGetPriceTypesQuery();
  const [map, { isLoading: mapping, originalArgs }] = useMapExchangePriceTypeMutation();
  const options = [
    ...(shopTypes ?? []).map(({ id, name }) => ({ value: id, label: name })),
    { value: NOT_LOADED, label: 'Не загружать' },
  ];

  const change = async (type: ExchangePriceType, choice: number | typeof NOT_LOADED) => {
    const priceTypeId = choice === NOT_LOADED ? null : choice;
    try {
      await map({ externalId: type.external_id, priceTypeId }).unwrap();
      const shopType = shopTypes?.find(({ id }) => id === priceTypeId);
      void message.success(
        shopType ? `Цены «${type.name}» заполняют «${shopType.name}»` : `Цены «${type.name}» не загружаются`,
      );
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось сопоставить тип цен');
    }
  };

  const columns: TableProps<ExchangePriceType>['columns'] = [
    { title: 'Тип цен в 1С', dataIndex: 'name' },
    {
      title: 'Тип цен на сайте',
      key: 'price_type',
      render: (_value, type) => (
        <Select<number | typeof NOT_LOADED>
          aria-label={`Тип цен на сайте для «${type.name}»`}
          value={type.price_type_id ?? NOT_LOADED}
          options={options}
          loading={isFetching || (mapping && originalArgs?.externalId === type.external_id)}
          onChange={(choice) => void change(type, choice)}
          style={{ width: 220 }}
        />
      ),
    },
    { title: 'Как выбран', key: 'how', render: (_value, type) => <MappingTag type={type} /> },
    { title: 'Последний обмен', dataIndex: 'last_seen_at', render: formatMoscowDateTimeNumeric },
  ];

  return (
    <section className="admin-section" aria-labelledby="exchange-price-types">
      <Typography.Title level={2} id="exchange-price-types">
        Типы цен 1С
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="admin-section-notes">
        Тип цен 1С с таким же названием, как тип цен на сайте, заполняет его сам. Остальные не загружаются, пока вы не
        выберете, какой тип сайта они заполняют. Выбор действует со следующей выгрузки цен из 1С.
      </Typography.Paragraph>
      <Table<ExchangePriceType>
        rowKey="external_id"
        size="small"
        columns={columns}
        dataSource={priceTypes}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('1С ещё не присылала типы цен: они появятся после первого обмена каталогом')}
      />
    </section>
  );
}

/** «Склады 1С»: whose stock makes up the site's. */
function Warehouses({ warehouses }: { warehouses: ExchangeWarehouse[] }) {
  const { message } = App.useApp();
  const [setUsed, { isLoading, originalArgs }] = useSetExchangeWarehouseUsedMutation();

  const change = async (warehouse: ExchangeWarehouse, used: boolean) => {
    try {
      await setUsed({ externalId: warehouse.external_id, used }).unwrap();
      void message.success(
        used
          ? `Остаток склада «${warehouse.name}» учитывается на сайте`
          : `Остаток склада «${warehouse.name}» больше не учитывается`,
      );
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось изменить склад');
    }
  };

  const columns: TableProps<ExchangeWarehouse>['columns'] = [
    { title: 'Склад в 1С', dataIndex: 'name' },
    {
      title: 'Учитывать в остатке',
      key: 'used',
      render: (_value, warehouse) => (
        <Switch
          aria-label={`Учитывать в остатке: ${warehouse.name}`}
          checked={warehouse.used}
          loading={isLoading && originalArgs?.externalId === warehouse.external_id}
          onChange={(used) => void change(warehouse, used)}
        />
      ),
    },
    { title: 'Последний обмен', dataIndex: 'last_seen_at', render: formatMoscowDateTimeNumeric },
  ];

  return (
    <section className="admin-section" aria-labelledby="exchange-warehouses">
      <Typography.Title level={2} id="exchange-warehouses">
        Склады 1С
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="admin-section-notes">
        Когда 1С присылает остатки по складам, остаток на сайте — сумма отмеченных складов; иначе — общее количество
        товара в 1С. Из него вычитаются штуки в заказах, которые 1С ещё не приняла. Выбор действует со следующей
        выгрузки остатков из 1С.
      </Typography.Paragraph>
      <Table<ExchangeWarehouse>
        rowKey="external_id"
        size="small"
        columns={columns}
        dataSource={warehouses}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('1С ещё не присылала склады: они появятся после первого обмена остатками')}
      />
    </section>
  );
}

/** The mapping of 1С's price types and warehouses onto the shop's. */
export function ExchangeMapping({
  priceTypes,
  warehouses,
}: {
  priceTypes: ExchangePriceType[];
  warehouses: ExchangeWarehouse[];
}) {
  return (
    <>
      <PriceTypes priceTypes={priceTypes} />
      <Warehouses warehouses={warehouses} />
    </>
  );
}
