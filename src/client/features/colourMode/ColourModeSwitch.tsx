import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Segmented } from 'antd';
import { useAppDispatch, useAppSelector } from '@/app/withTypes';
import { colourModeChanged, selectColourMode, type ColourMode } from './colourModeSlice';

const options: { value: ColourMode; label: string; Icon: typeof SunOutlined }[] = [
  { value: 'light', label: 'Светлая тема', Icon: SunOutlined },
  { value: 'dark', label: 'Тёмная тема', Icon: MoonOutlined },
  { value: 'system', label: 'Как в системе', Icon: DesktopOutlined },
];

export function ColourModeSwitch({ withLabels = false }: { withLabels?: boolean }) {
  const mode = useAppSelector(selectColourMode);
  const dispatch = useAppDispatch();
  return (
    <Segmented<ColourMode>
      aria-label="Цветовая тема"
      size="small"
      value={mode}
      onChange={(value) => dispatch(colourModeChanged(value))}
      // Segmented drops an option's aria-label, and each radio is named by its content: the icon
      // carries the name when there is no text (it would otherwise be the icon's 'sun', 'moon'...).
      options={options.map(({ value, label, Icon }) => ({
        value,
        icon: withLabels ? <Icon aria-hidden /> : <Icon aria-label={label} />,
        label: withLabels ? label : undefined,
        title: label,
      }))}
    />
  );
}
