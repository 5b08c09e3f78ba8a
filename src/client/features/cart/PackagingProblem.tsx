import { Button, Flex, Typography } from 'antd';

/** A line whose count the packaging does not take: why, and the one-click fix to the count it would. */
export function PackagingProblem({
  problem,
  fitCount,
  onFit,
}: {
  problem: string;
  fitCount: number | null;
  onFit(count: number): void;
}) {
  return (
    <Flex align="center" gap="small" wrap className="cart-line-shortage" role="alert">
      <Typography.Text type="danger">{problem}</Typography.Text>
      {fitCount !== null && (
        <Button size="small" onClick={() => onFit(fitCount)}>
          Округлить до {fitCount}
        </Button>
      )}
    </Flex>
  );
}
