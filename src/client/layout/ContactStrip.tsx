import { ClockCircleOutlined, EnvironmentOutlined, MailOutlined } from '@ant-design/icons';
import { CONTACT_EMAIL } from '@/api/config';

/** SPEC §1: city, address placeholder, mail link and hours; hidden at 640px and narrower (CSS). */
export function ContactStrip() {
  return (
    <aside className="contact-strip" aria-label="Контакты">
      <span>
        <EnvironmentOutlined /> Москва, адрес склада уточняйте у менеджера
      </span>
      <a href={`mailto:${CONTACT_EMAIL}`}>
        <MailOutlined /> {CONTACT_EMAIL}
      </a>
      <span>
        <ClockCircleOutlined /> Пн–Пт, 10:00–20:00
      </span>
    </aside>
  );
}
