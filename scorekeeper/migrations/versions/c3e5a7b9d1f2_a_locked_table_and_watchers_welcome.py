"""a locked table and watchers welcome

Revision ID: c3e5a7b9d1f2
Revises: a6f3c1d8e2b4
Create Date: 2026-11-29 20:00:00

The host locks the table once everyone sits (no new phone takes a free seat; a lost phone
still asks for its own) and chooses whether anyone with the link may watch. Every game
stored before is open, watchers welcome.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3e5a7b9d1f2'
down_revision = 'a6f3c1d8e2b4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game') as batch_op:
        batch_op.add_column(sa.Column('locked', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('watchers', sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade():
    with op.batch_alter_table('game') as batch_op:
        batch_op.drop_column('watchers')
        batch_op.drop_column('locked')
