import Fastify from 'fastify';
import * as domainErrors from '../domain/domain-errors';
import errorHandling, { statusOfDomainError } from './error-handler';

// A refused line has the status of its reason, so it is not in the map.
const { DomainError, LineRefusedError, ...concreteErrors } = domainErrors;

describe('domain errors → HTTP', () => {
  it('gives every domain error a status', () => {
    expect(Object.values(concreteErrors).filter((error) => !statusOfDomainError.has(error))).toEqual([]);
  });

  it.each([
    [new domainErrors.OrderNotFoundError(), 404],
    [new domainErrors.OrderNotCancellableError(7, 'Доставлен'), 409],
    [new domainErrors.OrderTransitionError(7, 'Доставлен', 'Оплачен'), 409],
    [new domainErrors.InvoiceRequiredError(7), 409],
    [new domainErrors.UserNotFoundError('a@b.ru'), 404],
    [new domainErrors.OutOfStockError({ name: 'Мишка', color: 'бурый', size: 30, stock: 1 }, 2), 409],
    [new domainErrors.ProductNotFoundError(3, 4), 422],
    [new domainErrors.VariantProductMismatchError(3), 422],
    [new domainErrors.IdempotencyConflictError(), 422],
    [new domainErrors.SessionExpiredError(), 401],
    [new LineRefusedError(3, new domainErrors.ProductHiddenError()), 409],
    [new LineRefusedError(2, new domainErrors.CartCountLimitError(10_000)), 422],
  ])('%s is answered with %i and its detail', async (error, status) => {
    const app = Fastify();
    await app.register(errorHandling);
    app.get('/', async () => {
      throw error;
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ detail: error.detail });
    await app.close();
  });

  it('names a refused line, from 1, before its reason', () => {
    expect(new LineRefusedError(3, new domainErrors.SoldOutError('Мишка')).detail).toBe(
      'Строка 3: товара «Мишка» нет в наличии',
    );
  });

  it('answers a domain error the plugin does not know with a generic 500', async () => {
    class UnmappedError extends DomainError {}
    const app = Fastify({ logger: false });
    await app.register(errorHandling);
    app.get('/', async () => {
      throw new UnmappedError('секрет');
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Внутренняя ошибка сервера' });
    await app.close();
  });
});
