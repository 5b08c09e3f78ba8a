import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { colourModeChanged, selectColourMode, type ColourMode } from './colourModeSlice';

const options: { value: ColourMode; label: string; Icon: typeof SunOutlined }[] = [
  { value: 'light', label: 'Светлая тема', Icon: SunOutlined },
  { value: 'dark', label: 'Тёмная тема', Icon: MoonOutlined },
  { value: 'system', label: 'Как в системе', Icon: DesktopOutlined },
];

/** Three buttons acting as one radio group. */
export function ColourModeSwitch({ withLabels = false }: { withLabels?: boolean }) {
  const mode = useAppSelector(selectColourMode);
  const dispatch = useAppDispatch();
  return (
    <Flex role="radiogroup" aria-label="Цветовая тема" gap={4} vertical={withLabels} className="colour-switch">
      {options.map(({ value, label, Icon }) => (
        <Button
          key={value}
          role="radio"
          aria-checked={mode === value}
          aria-label={label}
          title={label}
          size="small"
          type={mode === value ? 'primary' : 'text'}
          icon={<Icon aria-hidden />}
          onClick={() => dispatch(colourModeChanged(value))}
        >
          {withLabels ? label : null}
        </Button>
      ))}
    </Flex>
  );
}
