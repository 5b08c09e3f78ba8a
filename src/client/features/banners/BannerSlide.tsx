import { Link } from 'react-router';
import { imageUrl, type Banner } from '@shared/api';
import { API_HOST } from '@/api/config';

interface BannerSlideProps {
  banner: Banner;
  index: number;
  /** Only the slide on show can be reached with Tab: the others are hidden from assistive technology. */
  current: boolean;
}

/** One banner: its picture, linking to its url (shop pages inside the app), or to '#' without one. */
export function BannerSlide({ banner, index, current }: BannerSlideProps) {
  const url = banner.url || '#';
  const tabIndex = current ? 0 : -1;
  const image = (
    <img
      className="banner-image"
      src={imageUrl(API_HOST, banner.image)}
      alt={`Баннер ${index + 1}`}
      width={1200}
      height={400}
      loading={index === 0 ? 'eager' : 'lazy'}
    />
  );
  return url.startsWith('/') ? (
    <Link to={url} tabIndex={tabIndex}>
      {image}
    </Link>
  ) : (
    <a href={url} tabIndex={tabIndex}>
      {image}
    </a>
  );
}
