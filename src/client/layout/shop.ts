export const SHOP_NAME = 'Мягкий Опт';
