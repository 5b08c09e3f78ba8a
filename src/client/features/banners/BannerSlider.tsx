import 'slick-carousel/slick/slick.css';
import { useState } from 'react';
import Slider from 'react-slick';
import { TIMINGS, type Banner } from '@shared/api';
import { BannerSlide } from './BannerSlide';

/** SPEC §2/§9: auto-plays every 5 s with a 500 ms transition, looped, with dots. */
export default function BannerSlider({ banners }: { banners: Banner[] }) {
  const [current, setCurrent] = useState(0);
  return (
    // fade: looped without cloned slides, whose links screen readers would meet twice.
    <Slider
      autoplay
      autoplaySpeed={TIMINGS.bannerSlideMs}
      speed={TIMINGS.bannerTransitionMs}
      infinite
      fade
      dots
      arrows={false}
      pauseOnHover
      beforeChange={(_from, to) => setCurrent(to)}
    >
      {banners.map((banner, index) => (
        <div key={banner.id}>
          <BannerSlide banner={banner} index={index} current={index === current} />
        </div>
      ))}
    </Slider>
  );
}
