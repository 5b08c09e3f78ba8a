// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import './AboutPage.css';
import { CheckCircleOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { imageUrl } from '@shared/api';
import { ABOUT_PAGE_NAME } from '@shared/page-names';
import { PAGE_PATHS } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { ButtonLink } from '@/components/ButtonLink';
import { PageTitle } from '@/components/PageTitle';

const features = [
  'Оптовые поставки мягких игрушек и детских товаров для маркетплейсов и магазинов',
  'Оплата: полная предоплата или безналичный расчёт по счёту, который выставляет менеджер после заказа',
  'Доставка транспортными компаниями по всей России',
  'Сертифицированная продукция с маркировкой EAC',
];

export default function AboutPage() {
  return (
    <div className="about">
      <PageTitle name={ABOUT_PAGE_NAME} />
      <div className="about-text">
        <Typography.Title>О компании</Typography.Title>
        <Typography.Paragraph>
          «Мягкий Опт» — поставщик мягких игрушек и товаров для детей. Мы работаем с продавцами маркетплейсов,
          розничными магазинами и сетями: подбираем ассортимент, держим склад в Москве и отгружаем заказы от одной
          коробки.
        </Typography.Paragraph>
        <ul className="about-features">
          {features.map((feature) => (
            <li key={feature}>
              <CheckCircleOutlined className="about-feature-icon" /> {feature}
            </li>
          ))}
        </ul>
        <ButtonLink type="primary" size="large" to={PAGE_PATHS.catalogue}>
          Перейти в каталог
        </ButtonLink>
      </div>
      <img
        className="about-image"
        src={imageUrl(API_HOST, 'about.svg')}
        alt="Склад игрушек «Мягкий Опт»"
        width={800}
        height={500}
      />
    </div>
  );
}
