import { ClockCircleOutlined, EnvironmentOutlined, MailOutlined } from '@ant-design/icons';
import { SHOP_HOURS, SHOP_LOCATION } from '@shared/shop-contacts';
import { CONTACT_EMAIL } from '@/api/config';

/** SPEC §1: city, address placeholder, mail link and hours; hidden at 640px and narrower (CSS). */
export function ContactStrip() {
  return (
    <aside className="contact-strip" aria-label="Контакты">
      <span>
        <EnvironmentOutlined /> {SHOP_LOCATION}
      </span>
      <a href={`mailto:${CONTACT_EMAIL}`}>
        <MailOutlined /> {CONTACT_EMAIL}
      </a>
      <span>
        <ClockCircleOutlined /> {SHOP_HOURS}
      </span>
    </aside>
  );
}
