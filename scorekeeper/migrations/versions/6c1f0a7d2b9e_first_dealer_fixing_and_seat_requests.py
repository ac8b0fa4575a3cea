"""first dealer, results to fix after a clash, a new phone asking for its seat

Revision ID: 6c1f0a7d2b9e
Revises: fb53efe41ea1
Create Date: 2026-11-23 18:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6c1f0a7d2b9e'
down_revision = 'fb53efe41ea1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('first_dealer', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('asking_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fixing', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_column('fixing')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('asking_hash')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('first_dealer')
